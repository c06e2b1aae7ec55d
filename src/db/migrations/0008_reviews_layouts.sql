CREATE TABLE `job_readings` (
	`job_id` text PRIMARY KEY NOT NULL,
	`reading` text NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `layout_marks` (
	`layout_id` text NOT NULL,
	`account_id` text NOT NULL,
	`word` integer NOT NULL,
	`weight` integer NOT NULL,
	PRIMARY KEY(`layout_id`, `word`),
	FOREIGN KEY (`layout_id`) REFERENCES `layouts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `layout_marks_word_idx` ON `layout_marks` (`account_id`,`word`);--> statement-breakpoint
CREATE TABLE `layout_words` (
	`account_id` text NOT NULL,
	`word` integer NOT NULL,
	`layouts` integer NOT NULL,
	PRIMARY KEY(`account_id`, `word`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `layouts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`job_id` text NOT NULL,
	`body` text NOT NULL,
	`weight` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `layouts_account_idx` ON `layouts` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`job_id` text NOT NULL,
	`values` text NOT NULL,
	`corrected` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reviews_job_idx` ON `reviews` (`job_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `reviewed_at` text;