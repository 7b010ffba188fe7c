CREATE UNIQUE INDEX "fund_requests_payment_uuid_key" ON "fund_requests" USING btree ("payment_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_fund_request_key" ON "payments" USING btree ("fund_request_id");--> statement-breakpoint
CREATE INDEX "payments_verification_idx" ON "payments" USING btree ("verification","received_at");