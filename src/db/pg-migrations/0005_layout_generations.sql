CREATE TABLE "layout_generations" (
	"account_id" text PRIMARY KEY NOT NULL,
	"generation" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "layout_generations" ADD CONSTRAINT "layout_generations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "layout_generations" ("account_id", "generation") SELECT DISTINCT "account_id", 1 FROM "layouts";
