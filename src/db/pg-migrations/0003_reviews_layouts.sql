CREATE TABLE "job_readings" (
	"job_id" text PRIMARY KEY NOT NULL,
	"reading" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "layout_marks" (
	"layout_id" text NOT NULL,
	"account_id" text NOT NULL,
	"word" integer NOT NULL,
	"weight" integer NOT NULL,
	CONSTRAINT "layout_marks_layout_id_word_pk" PRIMARY KEY("layout_id","word")
);
--> statement-breakpoint
CREATE TABLE "layout_words" (
	"account_id" text NOT NULL,
	"word" integer NOT NULL,
	"layouts" integer NOT NULL,
	CONSTRAINT "layout_words_account_id_word_pk" PRIMARY KEY("account_id","word")
);
--> statement-breakpoint
CREATE TABLE "layouts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"job_id" text NOT NULL,
	"body" text NOT NULL,
	"weight" integer NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"job_id" text NOT NULL,
	"values" text NOT NULL,
	"corrected" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "reviewed_at" text;--> statement-breakpoint
ALTER TABLE "job_readings" ADD CONSTRAINT "job_readings_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "layout_marks" ADD CONSTRAINT "layout_marks_layout_id_layouts_id_fk" FOREIGN KEY ("layout_id") REFERENCES "public"."layouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "layout_words" ADD CONSTRAINT "layout_words_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "layouts" ADD CONSTRAINT "layouts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "layout_marks_word_idx" ON "layout_marks" USING btree ("account_id","word");--> statement-breakpoint
CREATE INDEX "layouts_account_idx" ON "layouts" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reviews_job_idx" ON "reviews" USING btree ("job_id","created_at");