ALTER TABLE `schemas` ADD `review_threshold` real DEFAULT 0.95 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `review_threshold` real DEFAULT 0.95 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `needs_review` integer;