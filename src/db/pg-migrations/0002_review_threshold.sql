ALTER TABLE "jobs" ADD COLUMN "review_threshold" double precision DEFAULT 0.95 NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "needs_review" boolean;--> statement-breakpoint
ALTER TABLE "schemas" ADD COLUMN "review_threshold" double precision DEFAULT 0.95 NOT NULL;