import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
// Money: naira with two decimals, exact (docs/architecture.md).
const naira = (name: string) => numeric(name, { precision: 18, scale: 2 });

export const staff = pgTable(
  "staff",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull().unique(),
    name: text("name").notNull(),
    role: text("role", { enum: ["admin", "operator", "viewer"] }).notNull(),
    passwordHash: text("password_hash").notNull(),
    disabled: boolean("disabled").notNull().default(false),
    // Set when an admin chose the password (POST /api/staff): until the person picks their own, only their
    // account page is open to them (lib/auth/guard.ts, page-guard.ts). Cleared by their password change.
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    // Two-step sign-in (docs/architecture.md, "Staff accounts"): secrets sealed with a key from AUTH_SECRET.
    totpSecret: text("totp_secret"),
    totpPendingSecret: text("totp_pending_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true, mode: "date" }),
    // The last 30 s step whose code was accepted: a code is good once (moves forward only).
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("staff_role_check", sql`${t.role} in ('admin', 'operator', 'viewer')`), check("staff_email_lower", sql`${t.email} = lower(${t.email})`)],
);

export const fundRequests = pgTable(
  "fund_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Our own reference, sent as meta.transactionReference.
    reference: text("reference").notNull().unique(),
    // A resubmitted form carries the same key: the constraint makes the second insert a no-op. Stored in
    // namespaces (lib/requests/keys.ts): `client:<key>` for keys sent to the API, `cmp_…` for campaign rows.
    idempotencyKey: text("idempotency_key").unique(),
    requestId: text("request_id").unique(),
    tag: text("tag").notNull(),
    amount: naira("amount").notNull(),
    description: text("description").notNull(),
    // The business's own reference for the person or invoice (a CSV's `reference` column, the form's field): carried
    // into payments, every CSV and the accounting exports. Never sent to the service.
    businessReference: text("business_reference"),
    status: text("status", { enum: ["sending", "pending", "accepted", "declined", "failed", "unknown"] }).notNull(),
    requestedBy: jsonb("requested_by").$type<{ name: string; tag: string } | null>(),
    requestedSentTo: jsonb("requested_sent_to").$type<{ name: string; tag: string } | null>(),
    createdBy: uuid("created_by").references(() => staff.id, { onDelete: "set null" }),
    error: text("error"),
    // A failed request's service error kind: `not_found` is the service saying the tag does not exist (no chase asks it).
    failureKind: text("failure_kind"),
    paymentUuid: text("payment_uuid"),
    serviceCreatedAt: timestamp("service_created_at", { withTimezone: true, mode: "date" }),
    serviceUpdatedAt: timestamp("service_updated_at", { withTimezone: true, mode: "date" }),
    // When the person accepted or declined: the payment's time when a payment moved it, else the service's.
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("fund_requests_status_check", sql`${t.status} in ('sending', 'pending', 'accepted', 'declined', 'failed', 'unknown')`),
    check("fund_requests_amount_positive", sql`${t.amount} > 0`),
    index("fund_requests_status_idx").on(t.status, t.lastCheckedAt),
    index("fund_requests_created_idx").on(t.createdAt),
    index("fund_requests_tag_idx").on(t.tag),
    // A payer's requests (lib/payers): the tag as a payer key (lower case, no leading @), newest first.
    index("fund_requests_payer_idx").on(sql`lower(regexp_replace(${t.tag}, '^@', ''))`, t.createdAt),
    // The day book counts answers by the day they came (lib/reports/daily.ts).
    index("fund_requests_decided_idx").on(t.decidedAt),
    // Accepted with no payment yet: the lost-webhook scan (lib/exceptions/detect.ts) reads only these.
    index("fund_requests_unpaid_idx")
      .on(t.decidedAt)
      .where(sql`${t.status} = 'accepted' and ${t.paymentUuid} is null`),
    // One payment per request and one request per payment: linking is decided by these constraints.
    uniqueIndex("fund_requests_payment_uuid_key").on(t.paymentUuid),
  ],
);

export const payments = pgTable(
  "payments",
  {
    // The service's transaction uuid: the primary key is the "already recorded?" constraint.
    uuid: text("uuid").primaryKey(),
    type: text("type").notNull(),
    amount: naira("amount").notNull(),
    actualAmount: naira("actual_amount").notNull(),
    settledAmount: naira("settled_amount").notNull(),
    fees: naira("fees").notNull(),
    description: text("description").notNull(),
    paypoint: boolean("paypoint").notNull().default(false),
    customerUuid: text("customer_uuid"),
    customerName: text("customer_name").notNull(),
    customerTag: text("customer_tag").notNull(),
    customerEmail: text("customer_email"),
    customerPhone: text("customer_phone"),
    customerAvatar: text("customer_avatar"),
    peerTag: text("peer_tag"),
    verification: text("verification", { enum: ["unverified", "verified", "failed"] })
      .notNull()
      .default("unverified"),
    verificationError: text("verification_error"),
    verificationAttempts: integer("verification_attempts").notNull().default(0),
    // Set with a failed verdict when the verify host disagreed on the amount, fees or settled amount (an
    // `amount_mismatch` exception, lib/exceptions), not when it could not be asked or did not know the transaction.
    verificationMismatch: boolean("verification_mismatch").notNull().default(false),
    verifiedAt: timestamp("verified_at", { withTimezone: true, mode: "date" }),
    fundRequestId: uuid("fund_request_id").references(() => fundRequests.id, { onDelete: "set null" }),
    linkNote: text("link_note"),
    // Linked at once when recorded; set when the service confirmed the request accepted (null: waiting to confirm).
    linkConfirmedAt: timestamp("link_confirmed_at", { withTimezone: true, mode: "date" }),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    // `hand`: recorded by a person settling a lost payment notice (lib/exceptions/record-by-hand.ts), never verified;
    // the late notice for its request replaces it (lib/payments/link.ts).
    source: text("source", { enum: ["webhook", "hand"] })
      .notNull()
      .default("webhook"),
    recordedByName: text("recorded_by_name"),
    // The person's own reference for a hand record (a bank statement line, say).
    handReference: text("hand_reference"),
  },
  (t) => [
    check("payments_verification_check", sql`${t.verification} in ('unverified', 'verified', 'failed')`),
    check("payments_source_check", sql`${t.source} in ('webhook', 'hand')`),
    // (received, uuid): the export's keyset pages read from the index, not a sort of every row after the cursor.
    index("payments_received_idx").on(t.receivedAt, t.uuid),
    index("payments_tag_idx").on(t.customerTag),
    index("payments_payer_idx").on(sql`lower(regexp_replace(${t.customerTag}, '^@', ''))`, t.receivedAt),
    uniqueIndex("payments_fund_request_key").on(t.fundRequestId),
    index("payments_verification_idx").on(t.verification, t.receivedAt),
    // The exceptions' scan finds payments linking gave up on (lib/exceptions/detect.ts): few, however many payments.
    index("payments_unlinked_idx")
      .on(t.receivedAt)
      .where(sql`${t.fundRequestId} is null and ${t.linkNote} is not null`),
  ],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    outcome: text("outcome", {
      enum: ["recorded", "duplicate", "bad_signature", "bad_payload", "too_large", "unknown_type", "bad_content_type", "error"],
    }).notNull(),
    httpStatus: integer("http_status").notNull(),
    eventType: text("event_type"),
    uuid: text("uuid"),
    // Redacted before writing: no bvn ever reaches this column.
    body: text("body"),
    remoteAddr: text("remote_addr"),
    detail: text("detail"),
    // Rejections past a few dozen an hour from one source are folded into one row per source and hour.
    count: integer("count").notNull().default(1),
    // Set only on such folded rows ("outcome|address|hour"): the constraint makes each fold one row.
    foldKey: text("fold_key").unique(),
  },
  (t) => [index("webhook_deliveries_received_idx").on(t.receivedAt), index("webhook_deliveries_outcome_idx").on(t.outcome, t.receivedAt)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    target: text("target"),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    ip: text("ip"),
    // Refused sign-ins that name no known account are folded: one row per action, reason, address and 15
    // minutes (lib/audit/write.ts), counted here; the unique key is what makes "seen this window?" one upsert.
    count: integer("count").notNull().default(1),
    groupKey: text("group_key"),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_actor_idx").on(t.actorEmail, t.at), uniqueIndex("audit_log_group_key").on(t.groupKey)],
);

// Business events (docs/architecture.md "Events"): appended by lib/events/append.ts in the transaction of the change
// they describe, so a change that rolls back has none; kept 30 days (lib/events/retention.job.ts).
export const events = pgTable(
  "events",
  {
    // `evt_` + a time-ordered unique id: the consumers read in this order.
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    // Set once the consumers' jobs for it are queued (lib/events/dispatch.job.ts); the partial index finds the rest.
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true, mode: "date" }),
    // The order the API's event log pages in, given when dispatched: after the commit, so a cursor never passes an
    // event that commits later (an id is taken when the event is made, before its transaction commits).
    seq: bigint("seq", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("events_seq_idx").on(t.seq),
    index("events_created_idx").on(t.createdAt),
    index("events_type_idx").on(t.type, t.createdAt),
    index("events_undispatched_idx")
      .on(t.id)
      .where(sql`dispatched_at is null`),
  ],
);

export type EventRow = typeof events.$inferSelect;
export type StaffRow = typeof staff.$inferSelect;
export type FundRequestRow = typeof fundRequests.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;

export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
  },
  (t) => [index("sign_in_attempts_email_idx").on(t.email, t.at), index("sign_in_attempts_ip_idx").on(t.ip, t.at)],
);

// What this database was first started as (the README's Configuration: "sandbox" or "live"); written once, never changed.
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

// One service budget for the whole deployment (docs/architecture.md): each call to the API host is a row of its
// class (send, api, read, background, public); the rows of the last minute are the budget spent, counted under a lock.
export const serviceCalls = pgTable(
  "service_calls",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    kind: text("kind", { enum: ["send", "api", "read", "background", "public"] }).notNull(),
  },
  (t) => [index("service_calls_at_idx").on(t.at), check("service_calls_kind_check", sql`${t.kind} in ('send', 'api', 'read', 'background', 'public')`)],
);

// The wallet balances as last read from the service, shared by every instance: one read per cache
// period for the deployment. `refreshingUntil` is the lease of the instance reading it now.
export const balanceCache = pgTable("balance_cache", {
  id: integer("id").primaryKey(),
  value: jsonb("value"),
  fetchedAt: timestamp("fetched_at", { withTimezone: true, mode: "date" }),
  refreshingUntil: timestamp("refreshing_until", { withTimezone: true, mode: "date" }),
});

// Collection campaigns (docs/architecture.md, "Campaigns"): a CSV becomes rows; each queued row is
// sent as one fund request by the campaign-send job. A sent row's status follows its request's.
export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    status: text("status", { enum: ["draft", "sending", "paused", "done", "cancelled"] })
      .notNull()
      .default("draft"),
    createdBy: uuid("created_by").references(() => staff.id, { onDelete: "set null" }),
    // The sender of record: rows go out under this account while it may send (the uploader, then whoever
    // starts or resumes it). The send job pauses the campaign with `pausedReason` once it no longer may.
    senderId: uuid("sender_id").references(() => staff.id, { onDelete: "set null" }),
    pausedReason: text("paused_reason"),
    // Ask-again rounds (lib/campaigns/ask-again.ts): the campaign it chases, the family's first campaign (null on
    // that first one: its family is itself) and its round, 1 for a first campaign.
    parentId: uuid("parent_id"),
    familyId: uuid("family_id"),
    round: integer("round").notNull().default(1),
    // An ask-again round a person let ask people still cooling down (audited): its send skips that check alone.
    cooldownOverride: boolean("cooldown_override").notNull().default(false),
    // A plan's period campaign (lib/plans/periods.ts): the plan and period it asks for; null for an upload.
    planId: uuid("plan_id"),
    period: text("period"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("campaigns_status_check", sql`${t.status} in ('draft', 'sending', 'paused', 'done', 'cancelled')`),
    index("campaigns_created_idx").on(t.createdAt),
    index("campaigns_status_idx").on(t.status),
    index("campaigns_family_idx").on(t.familyId),
    index("campaigns_plan_idx").on(t.planId, t.period),
  ],
);

export const campaignRows = pgTable(
  "campaign_rows",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    // 1-based data row of the file (the header is row 0).
    row: integer("row").notNull(),
    tag: text("tag").notNull(),
    // As written in the file; `amountNaira` is set when the row is valid.
    amountText: text("amount_text").notNull(),
    amountNaira: naira("amount_naira"),
    description: text("description").notNull(),
    businessReference: text("business_reference"),
    // `claimed`: taken by the send job before its call; after the call it is `sent` whatever the campaign's state.
    status: text("status", { enum: ["invalid", "queued", "claimed", "sent", "failed", "skipped"] }).notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true, mode: "date" }),
    error: text("error"),
    // Why an `invalid` row was left out by policy (do_not_ask, paid, cooling_down, asked_enough, pending); null for bad input.
    leftOut: text("left_out"),
    warning: text("warning"),
    // Set once the row's fund request is recorded: the unique index makes a row one request.
    fundRequestId: uuid("fund_request_id").references(() => fundRequests.id, { onDelete: "set null" }),
  },
  (t) => [
    check("campaign_rows_status_check", sql`${t.status} in ('invalid', 'queued', 'claimed', 'sent', 'failed', 'skipped')`),
    uniqueIndex("campaign_rows_campaign_row_key").on(t.campaignId, t.row),
    uniqueIndex("campaign_rows_fund_request_key").on(t.fundRequestId),
    index("campaign_rows_status_idx").on(t.campaignId, t.status, t.row),
    // A payer's page finds the campaigns they were in by their tag's key (lib/payers/queries.ts).
    index("campaign_rows_tag_key_idx").on(sql`lower(regexp_replace(${t.tag}, '^@', ''))`),
    // The send job finds claims left by a dead process (lib/campaigns/claims.ts).
    index("campaign_rows_claimed_idx")
      .on(t.claimedAt)
      .where(sql`${t.status} = 'claimed'`),
  ],
);

export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignRowRow = typeof campaignRows.$inferSelect;

// Single-use recovery codes, stored as keyed hashes; using one sets used_at once (the update's condition).
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_staff_hash").on(t.staffId, t.codeHash)],
);

// One row per sign-in; the session cookie names it, and a row with ended_at set answers 401 (docs/architecture.md).
export const staffSessions = pgTable(
  "staff_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    userAgent: text("user_agent").notNull().default(""),
    ip: text("ip").notNull().default(""),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
    endedReason: text("ended_reason"),
  },
  (t) => [index("staff_sessions_staff_idx").on(t.staffId, t.lastSeenAt)],
);

export type StaffSessionRow = typeof staffSessions.$inferSelect;

// Team settings an admin changes; one row.
export const settings = pgTable(
  "settings",
  {
    id: integer("id").primaryKey().default(1),
    require2fa: boolean("require_2fa").notNull().default(false),
    // The chasing policy (docs/architecture.md "Payers and chasing"): no ask-again of a tag that declined less than this many hours ago, and
    // at most this many asks of one tag in a campaign family.
    declineCooldownHours: integer("decline_cooldown_hours").notNull().default(72),
    maxAsksPerTag: integer("max_asks_per_tag").notNull().default(3),
    // The name payers see on pay pages and the e-mails' sender name.
    businessName: text("business_name").notNull().default("Fundboard"),
    updatedAt: updatedAt(),
  },
  (t) => [check("settings_one_row", sql`${t.id} = 1`)],
);

// Totals of finished hours (lib/payments/hour-totals.ts): a payment's received_at never changes, so an hour's sums
// are computed once and kept; the page's totals and chart read these plus a live sum of the hour not yet closed.
export const paymentHourTotals = pgTable("payment_hour_totals", {
  hour: timestamp("hour", { withTimezone: true, mode: "date" }).primaryKey(),
  count: integer("count").notNull(),
  amount: naira("amount").notNull(),
  fees: naira("fees").notNull(),
  settled: naira("settled").notNull(),
  // The payers' actual amounts (the day book's gross; `amount` is what was asked).
  gross: naira("gross").notNull(),
  computedAt: createdAt(),
});

// One row per payer (a tag asked or paid, lower case, no leading @): counts kept by triggers on fund_requests and
// payments (drizzle/0013_i23_payers.sql), their only writer, in the transaction of the change, so no page reads
// every payment and the counts cannot drift.
export const payerStats = pgTable(
  "payer_stats",
  {
    tag: text("tag").primaryKey(),
    name: text("name"),
    nameAt: timestamp("name_at", { withTimezone: true, mode: "date" }),
    // Requests the service took (pending, accepted or declined); failed ones are counted apart.
    asked: integer("asked").notNull().default(0),
    accepted: integer("accepted").notNull().default(0),
    declined: integer("declined").notNull().default(0),
    unanswered: integer("unanswered").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    payments: integer("payments").notNull().default(0),
    collected: naira("collected").notNull().default("0"),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    // One per order the list offers, in its direction, so a page is read off the index (bench 10).
    index("payer_stats_activity_idx").on(t.lastActivityAt.desc().nullsLast(), t.tag),
    index("payer_stats_collected_idx").on(t.collected.desc(), t.tag),
    index("payer_stats_asked_idx").on(t.asked.desc(), t.tag),
    // The search's trigram indexes on tag and name are made by hand where pg_trgm is available
    // (drizzle/0024_i37_payer_search.sql, docs/architecture.md "Payers and chasing"), so they are not declared here.
  ],
);

// Tags a person asked not to be asked again (lib/payers/do-not-ask.ts is the one writer; audited).
export const doNotAsk = pgTable("do_not_ask", {
  tag: text("tag").primaryKey(),
  note: text("note").notNull().default(""),
  markedBy: uuid("marked_by").references(() => staff.id, { onDelete: "set null" }),
  markedByName: text("marked_by_name").notNull(),
  markedAt: timestamp("marked_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export type PayerStatsRow = typeof payerStats.$inferSelect;
export type DoNotAskRow = typeof doNotAsk.$inferSelect;

// Recurring collections (docs/architecture.md, "Plans"): a plan and its roster are written by lib/plans/repo.ts;
// a period (made once: the unique plan + period) by lib/plans/periods.ts, in the transaction that makes its campaign.
export const plans = pgTable(
  "plans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    status: text("status", { enum: ["active", "paused", "ended"] })
      .notNull()
      .default("active"),
    frequency: text("frequency", { enum: ["weekly", "monthly", "quarterly"] }).notNull(),
    // Weekly: 1–7 (Monday first); monthly and quarterly: 1–28 (every month has it).
    day: integer("day").notNull(),
    // "HH:MM" on the wall clock of `timeZone`.
    sendAt: text("send_at").notNull(),
    timeZone: text("time_zone").notNull(),
    startsOn: text("starts_on").notNull(),
    endsOn: text("ends_on"),
    descriptionTemplate: text("description_template").notNull(),
    // Automatic chasing of a period: ask-again rounds `chaseAfterHours` apart, at most `chaseTimes`; null: none.
    chaseAfterHours: integer("chase_after_hours"),
    chaseTimes: integer("chase_times"),
    chaseInclude: jsonb("chase_include").$type<string[]>(),
    createdBy: uuid("created_by").references(() => staff.id, { onDelete: "set null" }),
    // Periods due after this instant are made by the clock (set at creation and on resume); earlier ones are not.
    activeSince: timestamp("active_since", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    // The clock has looked at every period due up to here: the next pass starts from it.
    checkedUntil: timestamp("checked_until", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("plans_status_check", sql`${t.status} in ('active', 'paused', 'ended')`),
    check("plans_frequency_check", sql`${t.frequency} in ('weekly', 'monthly', 'quarterly')`),
    index("plans_created_idx").on(t.createdAt),
  ],
);

export const planMembers = pgTable(
  "plan_members",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    // The roster's row (1-based); members added later continue the numbering.
    row: integer("row").notNull(),
    // As written; `tagKey` (lower case, no @) is the member: one ask a person a period.
    tag: text("tag").notNull(),
    tagKey: text("tag_key").notNull(),
    amountText: text("amount_text").notNull(),
    amountNaira: naira("amount_naira"),
    // The member's own description, or empty for the plan's template.
    description: text("description").notNull().default(""),
    businessReference: text("business_reference"),
    error: text("error"),
    // Removed members stay (their past periods keep their history) and are asked no more.
    removedAt: timestamp("removed_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("plan_members_plan_row_key").on(t.planId, t.row),
    // One live member a tag: a repeat in the roster is an invalid member with the reason.
    uniqueIndex("plan_members_plan_tag_key")
      .on(t.planId, t.tagKey)
      .where(sql`${t.removedAt} is null and ${t.error} is null`),
  ],
);

export const planPeriods = pgTable(
  "plan_periods",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    dueAt: timestamp("due_at", { withTimezone: true, mode: "date" }).notNull(),
    // made: its campaign exists; missed: due while no server ran, more than 72 h before one was back.
    status: text("status", { enum: ["made", "missed"] }).notNull(),
    campaignId: uuid("campaign_id").references(() => campaigns.id, { onDelete: "set null" }),
    // Who made it: null for the clock, else the person who ran it.
    madeBy: uuid("made_by").references(() => staff.id, { onDelete: "set null" }),
    madeAt: timestamp("made_at", { withTimezone: true, mode: "date" }),
    chaseRounds: integer("chase_rounds").notNull().default(0),
    // A chase that found only people cooling down or still to answer looks again then, its round not spent.
    chaseNextAt: timestamp("chase_next_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    check("plan_periods_status_check", sql`${t.status} in ('made', 'missed')`),
    uniqueIndex("plan_periods_plan_period_key").on(t.planId, t.period),
    uniqueIndex("plan_periods_campaign_key").on(t.campaignId),
  ],
);

export type PlanRow = typeof plans.$inferSelect;
export type PlanMemberRow = typeof planMembers.$inferSelect;
export type PlanPeriodRow = typeof planPeriods.$inferSelect;

// The main wallet's balance as the dashboard read it (lib/balance/readings.ts, its one writer): the day book's
// first and last reading of each day. Minor units (kobo), fractional as the service sends them.
export const balanceReadings = pgTable(
  "balance_readings",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }).notNull(),
    mainMinor: numeric("main_minor", { precision: 24, scale: 4 }).notNull(),
  },
  (t) => [index("balance_readings_read_idx").on(t.readAt)],
);

// The exceptions inbox (docs/architecture.md "Closing the books"; lib/exceptions): what needs a person. Jobs open one row per kind and subject
// (the unique key is the "already opened?"), close it when its cause clears; a person resolves it with a note.
export const exceptions = pgTable(
  "exceptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", {
      enum: ["unlinked_payment", "verification_failed", "amount_mismatch", "accepted_without_payment", "duplicate_payment", "pay_page_surge"],
    }).notNull(),
    // The payment uuid, for accepted_without_payment the fund request's id, for pay_page_surge `<page id>@<hour>`.
    subject: text("subject").notNull(),
    status: text("status", { enum: ["open", "resolved"] })
      .notNull()
      .default("open"),
    paymentUuid: text("payment_uuid"),
    // The service's request id it is about (or that a person linked the payment to).
    requestId: text("request_id"),
    tag: text("tag"),
    amount: naira("amount"),
    detail: text("detail").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    // Null with a resolved status: it closed by itself (its cause cleared), and `note` says what cleared it.
    resolvedById: uuid("resolved_by_id").references(() => staff.id, { onDelete: "set null" }),
    resolvedByName: text("resolved_by_name"),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
    note: text("note"),
    // Set when a person reopened it: from then on only a person closes it (the scan leaves it open).
    reopenedAt: timestamp("reopened_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    check(
      "exceptions_kind_check",
      sql`${t.kind} in ('unlinked_payment', 'verification_failed', 'amount_mismatch', 'accepted_without_payment', 'duplicate_payment', 'pay_page_surge')`,
    ),
    check("exceptions_status_check", sql`${t.status} in ('open', 'resolved')`),
    uniqueIndex("exceptions_kind_subject_key").on(t.kind, t.subject),
    index("exceptions_status_opened_idx").on(t.status, t.openedAt),
    // The Resolved tab's order (latest first): a page reads 25 entries of this, not every resolved row sorted.
    index("exceptions_status_resolved_idx").on(t.status, t.resolvedAt, t.id),
    // One kind's open list and its count read only that kind's entries.
    index("exceptions_status_kind_opened_idx").on(t.status, t.kind, t.openedAt),
    index("exceptions_payment_idx").on(t.paymentUuid),
  ],
);

export type ExceptionRow = typeof exceptions.$inferSelect;

// A person's notifications (docs/architecture.md "Notifications"): one row per (event, person), made by the
// notifications consumer; its e-mail's state beside it. The unique pair is the "already told?" check.
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** A path on the dashboard (the e-mail prefixes APP_URL). */
    link: text("link").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }),
    /** none (dashboard only) · queued · digest (waits for the daily digest) · sent · failed. */
    email: text("email", { enum: ["none", "queued", "digest", "sent", "failed"] })
      .notNull()
      .default("none"),
    emailAttempts: integer("email_attempts").notNull().default(0),
    emailError: text("email_error"),
    emailedAt: timestamp("emailed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("notifications_event_staff_idx").on(t.eventId, t.staffId),
    index("notifications_staff_created_idx").on(t.staffId, t.createdAt),
    index("notifications_unread_idx")
      .on(t.staffId)
      .where(sql`read_at is null`),
    index("notifications_created_idx").on(t.createdAt),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;

// What a person chose to be told (docs/architecture.md "Notifications"); no row means their role's defaults.
export const notificationPreferences = pgTable("notification_preferences", {
  staffId: uuid("staff_id")
    .primaryKey()
    .references(() => staff.id, { onDelete: "cascade" }),
  choices: jsonb("choices").$type<Record<string, string>>().notNull(),
  paymentThreshold: naira("payment_threshold"),
  digest: boolean("digest").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

// One daily digest per (person, Lagos day): the unique pair makes a second sender's attempt a no-op.
export const notificationDigests = pgTable(
  "notification_digests",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    status: text("status", { enum: ["queued", "sent", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("notification_digests_staff_day_idx").on(t.staffId, t.day)],
);

// The business's own receivers of its events (docs/architecture.md "Outgoing webhooks"). Secrets are sealed with a key
// derived from AUTH_SECRET; the previous one keeps signing until `previousSecretUntil` after a rotation.
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** null: every event type. */
    eventTypes: jsonb("event_types").$type<string[] | null>(),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    secretSealed: text("secret_sealed").notNull(),
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    createdBy: uuid("created_by").references(() => staff.id, { onDelete: "set null" }),
    /** The last delivered attempt; with `failingSince`, what the 5-day rule reads. */
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true, mode: "date" }),
    /** The first failed attempt since the last success (null while it delivers). */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    /** When its admins were told it has failed for 4 days (once per failing spell). */
    warnedAt: timestamp("warned_at", { withTimezone: true, mode: "date" }),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("webhook_endpoints_created_idx").on(t.createdAt)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

// One delivery per (event, endpoint): its body as first signed (a resend sends the same bytes and webhook-id), its
// attempts and the last answer. Kept 30 days.
export const outboundDeliveries = pgTable(
  "outbound_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastResponse: text("last_response"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Bumped by a resend or a recover: the attempt chain's job ids start afresh from it. */
    round: integer("round").notNull().default(0),
  },
  (t) => [
    uniqueIndex("outbound_deliveries_event_endpoint_idx").on(t.eventId, t.endpointId),
    index("outbound_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt),
    index("outbound_deliveries_created_idx").on(t.createdAt),
  ],
);

export type OutboundDeliveryRow = typeof outboundDeliveries.$inferSelect;

// API keys for the business's own systems (docs/architecture.md "The API"): only the SHA-256 of the key is kept,
// with its prefix and last 4 characters to show. A rolled key names the key that replaced it, its expiry moved to
// the overlap's end; `revokedAt` is when an admin turned it off.
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    keyHash: text("key_hash").notNull(),
    prefix: text("prefix").notNull(),
    last4: text("last4").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    readsPerMinute: integer("reads_per_minute").notNull().default(600),
    writesPerMinute: integer("writes_per_minute").notNull().default(60),
    createdBy: uuid("created_by").references(() => staff.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    lastUsedIp: text("last_used_ip"),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    rolledFrom: uuid("rolled_from"),
    replacedBy: uuid("replaced_by"),
  },
  (t) => [
    uniqueIndex("api_keys_hash_idx").on(t.keyHash),
    index("api_keys_created_idx").on(t.createdAt),
    check("api_keys_mode_check", sql`${t.mode} in ('test', 'live')`),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;

// One row per (API key, Idempotency-Key) for 24 h: the body's hash, and once answered the answer to replay. The
// primary key is what makes "already seen?" one insert (docs/architecture.md "The API").
export const apiIdempotency = pgTable(
  "api_idempotency",
  {
    apiKeyId: uuid("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    body: text("body"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index("api_idempotency_created_idx").on(t.createdAt)],
);

// Calls per key in each one-minute window and kind (read or write), shared by every instance.
export const apiRateWindows = pgTable(
  "api_rate_windows",
  {
    apiKeyId: uuid("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["read", "write"] }).notNull(),
    windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.kind, t.windowStart] })],
);

/** Calls to /api/v1 whose key was refused, per address (a keyed hash) a minute: key guessing meets a limit too. */
export const apiAddressWindows = pgTable(
  "api_address_windows",
  {
    addressKey: text("address_key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.addressKey, t.windowStart] })],
);

// Pay pages (docs/architecture.md "Pay pages"): a public page a payer opens to be sent a request. Amount is fixed or
// bounded; `fields` are the extra questions (one may be the business's reference). `views` counts page loads.
export const payPages = pgTable(
  "pay_pages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    amountFixed: naira("amount_fixed"),
    amountMin: naira("amount_min"),
    amountMax: naira("amount_max"),
    fields: jsonb("fields").$type<{ label: string; required: boolean; reference: boolean }[]>().notNull().default([]),
    planId: uuid("plan_id").references(() => plans.id, { onDelete: "set null" }),
    active: boolean("active").notNull().default(true),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    maxPayments: integer("max_payments"),
    successMessage: text("success_message").notNull(),
    dailyLimit: integer("daily_limit").notNull().default(500),
    views: bigint("views", { mode: "number" }).notNull().default(0),
    createdBy: uuid("created_by").references(() => staff.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("pay_pages_slug_key").on(t.slug),
    index("pay_pages_created_idx").on(t.createdAt),
    // A fixed amount, or bounds (the least not above the most), never both.
    check(
      "pay_pages_amount_check",
      sql`(${t.amountFixed} is not null and ${t.amountMin} is null and ${t.amountMax} is null) or (${t.amountFixed} is null and ${t.amountMin} is not null and ${t.amountMax} is not null and ${t.amountMin} <= ${t.amountMax})`,
    ),
    check("pay_pages_limits_check", sql`${t.dailyLimit} > 0 and (${t.maxPayments} is null or ${t.maxPayments} > 0)`),
  ],
);

export type PayPageRow = typeof payPages.$inferSelect;

// One row per accepted submission of a pay page: `token` is the payer's status link; `addressKey` a keyed hash of
// the submitting address (never the address itself). The send job moves `queued` on to `sent` (a request made),
// `joined` (a plan member added, the period still to come), `held` (silently not sent: do-not-ask, cool-down, the
// tag's limits) or `failed` (the service refused; shown to the payer as waiting, so no tag can be probed).
export const payPageSubmissions = pgTable(
  "pay_page_submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    pageId: uuid("page_id")
      .notNull()
      .references(() => payPages.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    tag: text("tag").notNull(),
    tagKey: text("tag_key").notNull(),
    amount: naira("amount").notNull(),
    fields: jsonb("fields").$type<string[]>().notNull().default([]),
    addressKey: text("address_key").notNull(),
    status: text("status", { enum: ["queued", "sent", "joined", "held", "failed"] })
      .notNull()
      .default("queued"),
    heldReason: text("held_reason"),
    fundRequestId: uuid("fund_request_id").references(() => fundRequests.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    check("pay_page_submissions_status_check", sql`${t.status} in ('queued', 'sent', 'joined', 'held', 'failed')`),
    uniqueIndex("pay_page_submissions_token_key").on(t.token),
    uniqueIndex("pay_page_submissions_fund_request_key").on(t.fundRequestId),
    index("pay_page_submissions_page_created_idx").on(t.pageId, t.createdAt),
    index("pay_page_submissions_address_created_idx").on(t.addressKey, t.createdAt),
    index("pay_page_submissions_tag_created_idx").on(t.tagKey, t.createdAt),
    index("pay_page_submissions_queued_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'queued'`),
  ],
);

export type PayPageSubmissionRow = typeof payPageSubmissions.$inferSelect;

// Proof-of-work challenges already spent: the primary key makes each single-use; kept until they expire.
export const payChallengesUsed = pgTable(
  "pay_challenges_used",
  {
    signature: text("signature").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("pay_challenges_used_expires_idx").on(t.expiresAt)],
);
