-- Notices of illegal content by anyone (modules/dsa-notices): a visitor's counts once its e-mail
-- link is confirmed, and then joins the reports queue as a post_reports row with no member reporter.
CREATE TABLE "dsa_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid,
	"post_author_id" uuid,
	"notifier_id" uuid,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"explanation" text NOT NULL,
	"location" text NOT NULL,
	"post_snapshot" jsonb NOT NULL,
	"confirm_token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "dsa_notices_lengths" CHECK (char_length("dsa_notices"."explanation") <= 2000 and char_length("dsa_notices"."name") <= 100 and char_length("dsa_notices"."location") <= 500 and char_length("dsa_notices"."email") <= 254)
);--> statement-breakpoint
ALTER TABLE "dsa_notices" ADD CONSTRAINT "dsa_notices_post_id_publications_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."publications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dsa_notices" ADD CONSTRAINT "dsa_notices_post_author_id_profiles_id_fk" FOREIGN KEY ("post_author_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dsa_notices" ADD CONSTRAINT "dsa_notices_notifier_id_profiles_id_fk" FOREIGN KEY ("notifier_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dsa_notices_confirm_token_key" ON "dsa_notices" USING btree ("confirm_token_hash");--> statement-breakpoint
ALTER TABLE "post_reports" ALTER COLUMN "reported_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "post_reports" ADD COLUMN "dsa_notice_id" uuid;--> statement-breakpoint
ALTER TABLE "post_reports" ADD CONSTRAINT "post_reports_dsa_notice_id_dsa_notices_id_fk" FOREIGN KEY ("dsa_notice_id") REFERENCES "public"."dsa_notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_reports" ADD CONSTRAINT "post_reports_reporter_or_notice" CHECK ("post_reports"."reported_by" is not null or "post_reports"."dsa_notice_id" is not null);--> statement-breakpoint
CREATE UNIQUE INDEX "post_reports_dsa_notice_key" ON "post_reports" USING btree ("dsa_notice_id");
