// Only web addresses are shown: an avatar is data from the webhook, not something to trust blindly.
function isWebUrl(url: string | null): url is string {
  return !!url && /^https?:\/\//i.test(url);
}

export function CustomerAvatar({ name, url, size = 32 }: { name: string; url: string | null; size?: number }) {
  const style = { width: size, height: size };
  if (!isWebUrl(url)) {
    return (
      <span aria-hidden="true" style={style} className="inline-flex shrink-0 items-center justify-center rounded-full bg-slate-200 text-xs font-medium text-slate-700">
        {name.trim().charAt(0).toUpperCase() || "?"}
      </span>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- avatars come from the service's own host, not ours to optimise
    <img src={url} alt={`Avatar of ${name}`} width={size} height={size} loading="lazy" referrerPolicy="no-referrer" style={style} className="shrink-0 rounded-full bg-slate-200 object-cover" />
  );
}
