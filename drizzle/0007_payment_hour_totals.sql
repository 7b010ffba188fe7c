CREATE TABLE "payment_hour_totals" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"fees" numeric(18, 2) NOT NULL,
	"settled" numeric(18, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
