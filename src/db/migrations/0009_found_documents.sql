ALTER TABLE `jobs` ADD `split` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `classification` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `documents` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `split_from` text;