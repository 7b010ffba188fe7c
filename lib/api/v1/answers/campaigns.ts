import { z } from "zod";

import { CAMPAIGN_STATUSES, LEFT_OUT_REASONS, ROW_STATUSES, type CampaignRowView, type CampaignView } from "@/lib/client/campaigns/view";
import type { Page } from "@/lib/client/http/page-param";

import { assertSame, isoTime, naira, page, type Same } from "../wire";

// A campaign and its rows as /api/v1 answers them: the dashboard's own views (docs/architecture.md "The API").

const status = z.enum(CAMPAIGN_STATUSES);

export const campaignAnswer = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().nullable().meta({ description: "The campaign this round asks again for; null for a first campaign" }),
    round: z.number().int().meta({ description: "1 for a first campaign" }),
    family: z
      .object({
        rounds: z.array(z.object({ id: z.string(), name: z.string(), round: z.number().int(), status })),
        paid: z.number().int().meta({ description: "Tags with an accepted request anywhere in the family, each once" }),
        asked: z.number().int().meta({ description: "Tags asked anywhere in the family, each once" }),
        stillOpen: z.number().int().meta({ description: "Rows still to send whose person has an open request from an earlier round" }),
      })
      .nullable()
      .meta({ description: "The campaign's rounds; on the one-campaign read only (null in lists)" }),
    status,
    createdBy: z.string().nullable(),
    sentBy: z.string().nullable().meta({ description: "The sender of record: rows go out under this person's account" }),
    pausedReason: z.string().nullable().meta({ description: "Why it paused by itself; null unless paused that way" }),
    createdAt: isoTime,
    startedAt: isoTime.nullable(),
    finishedAt: isoTime.nullable(),
    counts: z.object({
      total: z.number().int(),
      invalid: z.number().int(),
      queued: z.number().int(),
      sent: z.number().int(),
      accepted: z.number().int(),
      declined: z.number().int(),
      failed: z.number().int(),
      unknown: z.number().int(),
      skipped: z.number().int(),
    }),
    amounts: z.object({
      asked: naira.meta({ description: "The rows that are or will be asked" }),
      accepted: naira,
      collected: naira.meta({ description: "Settled amount of the accepted rows' payments, after fees" }),
      outstanding: naira.meta({ description: "The rows still waiting for an answer" }),
    }),
    warnings: z.number().int().meta({ description: "Rows flagged with a warning (still sent)" }),
    etaSeconds: z.number().int().nullable().meta({ description: "Seconds left for the queued rows at the budget's pace; null when nothing is left" }),
  })
  .meta({ id: "Campaign" });

export const campaignPageAnswer = page(campaignAnswer).meta({ id: "CampaignPage" });

export const campaignRowAnswer = z
  .object({
    row: z.number().int().meta({ description: "1-based, in the order the rows were given" }),
    line: z
      .number()
      .int()
      .meta({ description: "Where the row stands in its file as a spreadsheet numbers it (the header is line 1); row + 1 for rows sent as JSON" }),
    tag: z.string(),
    amount: z.string().meta({ description: "Naira as two-decimal string; as given for an invalid row" }),
    description: z.string(),
    businessReference: z.string().nullable(),
    status: z.enum(ROW_STATUSES).meta({ description: "A sent row follows its request: sent (pending), accepted, declined, failed, unknown" }),
    requestId: z.string().nullable(),
    error: z.string().nullable().meta({ description: "Why the row is invalid or its request failed" }),
    leftOut: z.enum(LEFT_OUT_REASONS).nullable().meta({ description: "Why the row was left out by policy (do-not-ask, say)" }),
    warning: z.string().nullable(),
    paidBy: z.string().nullable(),
    paidAmount: naira.nullable(),
    settledAmount: naira.nullable(),
    paidAt: isoTime.nullable(),
  })
  .meta({ id: "CampaignRow" });

export const campaignRowPageAnswer = page(campaignRowAnswer).meta({ id: "CampaignRowPage" });

assertSame<Same<z.output<typeof campaignAnswer>, CampaignView>>(true);
assertSame<Same<z.output<typeof campaignPageAnswer>, Page<CampaignView>>>(true);
assertSame<Same<z.output<typeof campaignRowAnswer>, CampaignRowView>>(true);
assertSame<Same<z.output<typeof campaignRowPageAnswer>, Page<CampaignRowView>>>(true);
