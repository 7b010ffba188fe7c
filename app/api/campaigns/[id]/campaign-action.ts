import "server-only";

import { withStaff } from "@/lib/auth/guard";
import { applyCampaignAction } from "@/lib/campaigns/actions";
import { movedCampaign } from "@/lib/http/answers/campaigns";
import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";
import { ok } from "@/lib/http/envelope";

/** The route handler of POST /api/campaigns/:id/<transition> (admin, operator): lib/campaigns decides, this answers. */
export function campaignAction(transition: Transition) {
  return withStaff<{ id: string }>("campaigns.write", async (_request, { db, actor, params }) => {
    return ok(movedCampaign(await applyCampaignAction(db, actor, params.id, transition), transition), TRANSITIONS[transition].done);
  });
}
