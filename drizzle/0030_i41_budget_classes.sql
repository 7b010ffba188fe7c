ALTER TABLE "service_calls" DROP CONSTRAINT "service_calls_kind_check";--> statement-breakpoint
-- Two more classes of the shared service budget (docs/architecture.md "The service budget"): calls made for an API key, and pay pages' calls.
ALTER TABLE "service_calls" ADD CONSTRAINT "service_calls_kind_check" CHECK ("service_calls"."kind" in ('send', 'api', 'read', 'background', 'public'));
