import "server-only";

import type { V1Operation } from "@/lib/api/v1/operation";
import { withApiKey } from "@/lib/api-keys/guard";
import { applyCampaignAction } from "@/lib/campaigns/actions";
import { movedCampaign, presentCampaign } from "@/lib/http/answers/campaigns";
import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";
import { ok } from "@/lib/http/envelope";

/** POST /api/v1/campaigns/:id/<transition>: the dashboard's use case and its answers (lib/http/answers/campaigns.ts). */
export function campaignAction(op: V1Operation, transition: Transition) {
  return withApiKey<{ id: string }>(op, async (_request, { db, actor, params }) => {
    const campaign = movedCampaign(await applyCampaignAction(db, actor, params.id, transition), transition);
    return ok(presentCampaign(campaign), TRANSITIONS[transition].done);
  });
}
