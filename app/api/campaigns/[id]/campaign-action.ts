import "server-only";

import { withStaff } from "@/lib/auth/guard";
import { applyCampaignAction } from "@/lib/campaigns/actions";
import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";
import { conflict, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";

/** The route handler of POST /api/campaigns/:id/<transition> (admin, operator): lib/campaigns decides, this answers. */
export function campaignAction(transition: Transition) {
  return withStaff<{ id: string }>("campaigns.write", async (_request, { db, actor, params }) => {
    const outcome = await applyCampaignAction(db, actor, params.id, transition);
    if (!outcome.ok) {
      if (outcome.current === null) throw notFound("No such campaign.");
      throw conflict(`${TRANSITIONS[transition].refused}; this one is ${outcome.current}.`, { status: outcome.current });
    }
    return ok(outcome.campaign, TRANSITIONS[transition].done);
  });
}
