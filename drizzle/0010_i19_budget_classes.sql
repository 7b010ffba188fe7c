ALTER TABLE "service_calls" DROP CONSTRAINT "service_calls_kind_check";--> statement-breakpoint
-- The old 'interactive' calls were people's reads or sends; counted as reads they still spend their minute.
UPDATE "service_calls" SET "kind" = 'read' WHERE "kind" = 'interactive';--> statement-breakpoint
ALTER TABLE "service_calls" ADD CONSTRAINT "service_calls_kind_check" CHECK ("service_calls"."kind" in ('send', 'read', 'background'));
