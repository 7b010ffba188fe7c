-- Calls to /api/v1 whose key was refused, counted per address (a keyed hash) a minute (docs/architecture.md "The API").
CREATE TABLE "api_address_windows" (
	"address_key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "api_address_windows_address_key_window_start_pk" PRIMARY KEY("address_key","window_start")
);
