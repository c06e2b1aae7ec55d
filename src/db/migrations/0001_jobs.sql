CREATE TABLE `job_files` (
	`job_id` text PRIMARY KEY NOT NULL,
	`content` blob NOT NULL,
	`expires_at` text,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `job_files_expires_idx` ON `job_files` (`expires_at`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`document_type` text NOT NULL,
	`schema_id` text,
	`fields` text NOT NULL,
	`file_name` text NOT NULL,
	`file_size` integer NOT NULL,
	`file_media_type` text NOT NULL,
	`file_sha256` text NOT NULL,
	`result` text,
	`fields_meta` text,
	`error_code` text,
	`error_message` text,
	`engine` text NOT NULL,
	`runner` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `jobs_account_created_idx` ON `jobs` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_status_idx` ON `jobs` (`status`,`created_at`);