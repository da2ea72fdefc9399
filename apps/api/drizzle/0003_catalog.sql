CREATE TABLE "product_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_brands" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_grid_colors" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_grid_sizes" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"storage_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"color_id" integer,
	"size_id" integer,
	"sku" text,
	"barcode" text,
	"price_cents" integer,
	"stock" numeric(14, 3) DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sku" text,
	"barcode" text,
	"product_type" text DEFAULT 'simple' NOT NULL,
	"unit" text DEFAULT 'un' NOT NULL,
	"sale_price_cents" integer NOT NULL,
	"cost_price_cents" integer DEFAULT 0 NOT NULL,
	"category_id" integer,
	"brand_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"stock_control" boolean DEFAULT true NOT NULL,
	"stock" numeric(14, 3) DEFAULT 0 NOT NULL,
	"min_stock" numeric(14, 3) DEFAULT 0 NOT NULL,
	"weight_kg" numeric(10, 3),
	"height_cm" numeric(10, 2),
	"width_cm" numeric(10, 2),
	"length_cm" numeric(10, 2),
	"name_key" text NOT NULL,
	"search_text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_additional_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"min_quantity" integer DEFAULT 0 NOT NULL,
	"max_quantity" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_additional_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"name" text NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_additional_links" (
	"product_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_additional_links_product_id_group_id_pk" PRIMARY KEY("product_id","group_id")
);
--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_brands" ADD CONSTRAINT "product_brands_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_grid_colors" ADD CONSTRAINT "product_grid_colors_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_grid_colors" ADD CONSTRAINT "product_grid_colors_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_grid_sizes" ADD CONSTRAINT "product_grid_sizes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_grid_sizes" ADD CONSTRAINT "product_grid_sizes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_color_id_product_grid_colors_id_fk" FOREIGN KEY ("color_id") REFERENCES "public"."product_grid_colors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_size_id_product_grid_sizes_id_fk" FOREIGN KEY ("size_id") REFERENCES "public"."product_grid_sizes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_product_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."product_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_brand_id_product_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."product_brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_additional_groups" ADD CONSTRAINT "product_additional_groups_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_additional_items" ADD CONSTRAINT "product_additional_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_additional_items" ADD CONSTRAINT "product_additional_items_group_id_product_additional_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."product_additional_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_additional_links" ADD CONSTRAINT "product_additional_links_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_additional_links" ADD CONSTRAINT "product_additional_links_group_id_product_additional_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."product_additional_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_categories_client_name_uq" ON "product_categories" USING btree ("client_id",lower("name"));--> statement-breakpoint
CREATE INDEX "product_categories_client_idx" ON "product_categories" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_brands_client_name_uq" ON "product_brands" USING btree ("client_id",lower("name"));--> statement-breakpoint
CREATE INDEX "product_brands_client_idx" ON "product_brands" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_grid_colors_product_name_uq" ON "product_grid_colors" USING btree ("product_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_grid_sizes_product_name_uq" ON "product_grid_sizes" USING btree ("product_id",lower("name"));--> statement-breakpoint
CREATE INDEX "product_images_product_idx" ON "product_images" USING btree ("product_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_images_key_uq" ON "product_images" USING btree ("storage_key");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_client_sku_uq" ON "product_variants" USING btree ("client_id",lower("sku"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_client_barcode_uq" ON "product_variants" USING btree ("client_id","barcode");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_combination_uq" ON "product_variants" USING btree ("product_id",coalesce("color_id", 0),coalesce("size_id", 0));--> statement-breakpoint
CREATE UNIQUE INDEX "products_client_sku_uq" ON "products" USING btree ("client_id",lower("sku"));--> statement-breakpoint
CREATE UNIQUE INDEX "products_client_barcode_uq" ON "products" USING btree ("client_id","barcode");--> statement-breakpoint
CREATE INDEX "products_client_name_idx" ON "products" USING btree ("client_id","name_key","id");--> statement-breakpoint
CREATE INDEX "products_client_created_idx" ON "products" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_client_price_idx" ON "products" USING btree ("client_id","sale_price_cents","id");--> statement-breakpoint
CREATE INDEX "products_client_category_idx" ON "products" USING btree ("client_id","category_id");--> statement-breakpoint
CREATE INDEX "products_client_brand_idx" ON "products" USING btree ("client_id","brand_id");--> statement-breakpoint
CREATE INDEX "products_search_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "product_additional_groups_client_name_uq" ON "product_additional_groups" USING btree ("client_id",lower("name"));--> statement-breakpoint
CREATE INDEX "product_additional_items_group_idx" ON "product_additional_items" USING btree ("group_id","position");--> statement-breakpoint
CREATE INDEX "product_additional_links_group_idx" ON "product_additional_links" USING btree ("group_id");