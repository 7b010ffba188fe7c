// Whether a build made elsewhere may stand in for the hardening suite's own (tests/hardening/global-setup.ts).
import { keyFingerprint } from "@/scripts/build-if-needed";

export type BuildMarker = { hash: string; serviceKeySha256: string | null };

/** Why the build with this marker cannot be the suite's, or null when it can: these sources, built with the key. */
export function givenBuildProblem(marker: BuildMarker | null, sourcesHash: string, key: string): string | null {
  if (!marker) return "holds no build `npm run build` finished (no BUILD_ID or fundboard-build.json)";
  if (marker.hash !== sourcesHash) return "was built from other sources";
  if (marker.serviceKeySha256 !== keyFingerprint(key))
    return "was not built with the hardening key in SERVICE_API_KEY, so its key-leak scan would prove nothing";
  return null;
}
