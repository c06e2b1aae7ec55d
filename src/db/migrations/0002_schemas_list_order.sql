DROP INDEX `schemas_account_active_idx`;--> statement-breakpoint
CREATE INDEX `schemas_account_active_idx` ON `schemas` (`account_id`,`is_active`,`created_at`,`id`);