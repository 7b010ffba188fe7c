// The requests' words and limits, zod-free: forms and lists import them without loading the schemas (bench 4).
export const DESCRIPTION_MAX = 140;

export const REQUEST_STATUSES = ["sending", "pending", "accepted", "declined", "failed", "unknown"] as const;
export type LocalRequestStatus = (typeof REQUEST_STATUSES)[number];
