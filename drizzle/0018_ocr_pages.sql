ALTER TABLE "document_pages" ADD COLUMN "ocr_state" text;--> statement-breakpoint
ALTER TABLE "document_pages" ADD COLUMN "ocr_confidence" real;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "ocr_page_count" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "unreadable_pages" integer[];