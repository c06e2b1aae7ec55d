CREATE TABLE `schema_versions` (
	`schema_id` text NOT NULL,
	`version` integer NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`fields` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`schema_id`, `version`),
	FOREIGN KEY (`schema_id`) REFERENCES `schemas`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`account_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `key`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
ALTER TABLE `schemas` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `schemas` ADD `version_created_at` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `schema_version` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_expires_at` text;--> statement-breakpoint
-- Schemas made before versions existed are at version 1, made when they last changed.
UPDATE `schemas` SET `version_created_at` = `updated_at`;
