import { avatarSrc } from "./avatar-url";

// Only https addresses are shown, without a Referer: an avatar is data from the webhook, not something to trust blindly.
export function CustomerAvatar({ name, url, size = 32 }: { name: string; url: string | null; size?: number }) {
  const style = { width: size, height: size };
  const src = avatarSrc(url);
  if (src === null) {
    return (
      <span
        aria-hidden="true"
        style={style}
        className="inline-flex shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-medium text-slate-700"
      >
        {name.trim().charAt(0).toUpperCase() || "?"}
      </span>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- avatars come from the service's own host, not ours to optimise
    <img
      src={src}
      alt={`Avatar of ${name}`}
      width={size}
      height={size}
      loading="lazy"
      referrerPolicy="no-referrer"
      style={style}
      className="shrink-0 rounded-full bg-slate-200 object-cover"
    />
  );
}
