CREATE TABLE `layout_generations` (
	`account_id` text PRIMARY KEY NOT NULL,
	`generation` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `layout_generations` (`account_id`, `generation`) SELECT DISTINCT `account_id`, 1 FROM `layouts`;
