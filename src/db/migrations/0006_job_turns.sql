CREATE TABLE `job_turns` (
	`account_id` text PRIMARY KEY NOT NULL,
	`last_claimed_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `jobs_account_status_idx` ON `jobs` (`account_id`,`status`);