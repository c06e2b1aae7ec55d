CREATE TABLE "job_turns" (
	"account_id" text PRIMARY KEY NOT NULL,
	"last_claimed_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job_turns" ADD CONSTRAINT "job_turns_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_account_status_idx" ON "jobs" USING btree ("account_id","status");