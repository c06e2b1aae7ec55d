ALTER TABLE "jobs" ADD COLUMN "split" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "classification" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "documents" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "split_from" text;