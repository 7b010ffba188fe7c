import { withStaff } from "@/lib/auth/guard";
import { askAgainAudited } from "@/lib/campaigns/ask-again";
import { getCampaignView } from "@/lib/campaigns/queries";
import { DraftLimitError, MAX_DRAFTS_PER_PERSON, RoundDraftExistsError } from "@/lib/campaigns/repo";
import { askAgainSchema } from "@/lib/client/campaigns/schemas";
import { LEFT_OUT_WORDS } from "@/lib/client/campaigns/view";
import { conflict, notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Ask again (docs/architecture.md "Payers and chasing"): a draft next round of this campaign's declined, failed or unanswered rows, checked against the policy. */
export const POST = withStaff<{ id: string }>("campaigns.write", async (request, { db, params, actor }) => {
  const input = await parseJsonBody(request, askAgainSchema);
  const outcome = await askAgainAudited(db, actor, params.id, input).catch((error: unknown) => {
    if (error instanceof RoundDraftExistsError) {
      throw conflict("The next round of this campaign is already waiting as a draft. Open it under Campaigns and start it or discard it, then ask again.", {
        draftId: error.draftId,
      });
    }
    if (error instanceof DraftLimitError) {
      throw conflict(
        `You already have ${MAX_DRAFTS_PER_PERSON} draft campaigns, the most one person can keep. Open one under Campaigns and start it or discard it (Discard draft), then ask again.`,
        { drafts: error.drafts, maxDrafts: MAX_DRAFTS_PER_PERSON },
      );
    }
    throw error;
  });
  switch (outcome.kind) {
    case "not_found":
      throw notFound("No such campaign. It may have been made on another dashboard.");
    case "draft":
      throw conflict("This campaign is still a draft: nobody has been asked yet. Start it, and ask again once people have answered.");
    case "nothing": {
      const reasons = [...new Set(outcome.leftOut.map((l) => LEFT_OUT_WORDS[l.reason]))];
      throw conflict(
        outcome.leftOut.length === 0
          ? "Nobody in this campaign is in the states you chose, so there is nobody to ask again."
          : `Everyone you chose is left out by the chasing policy (${reasons.join("; ")}), so there is nobody to ask again.`,
        { leftOut: outcome.leftOut.map((l) => ({ tag: l.tag, reason: l.reason })) },
      );
    }
    case "made": {
      const view = await getCampaignView(db, outcome.id);
      const twice = input.include.includes("unanswered")
        ? " Those still to answer will hold two open requests; if both are paid, the second payment is to be refunded."
        : "";
      return ok(
        { campaign: view, leftOut: outcome.leftOut.map((l) => ({ tag: l.tag, amount: l.amount, reason: l.reason })) },
        `Round ${outcome.round} is ready as a draft: ${outcome.rows} to ask again, ${outcome.leftOut.length} left out.${twice} Check it and start it.`,
        201,
      );
    }
  }
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
