# The reporting warehouse: council metric records, bias reports, audit daily roll-ups and the audit stream, each
# partitioned by day and clustered by tenant, plus a Pub/Sub -> BigQuery subscription that writes every
# bias.audit.stream event into `audit_stream` with no code in between.

data "google_project" "this" {
  project_id = var.project_id
}

locals {
  pubsub_service_agent = "serviceAccount:service-${data.google_project.this.number}@gcp-sa-pubsub.iam.gserviceaccount.com"
}

resource "google_bigquery_dataset" "warehouse" {
  project                    = var.project_id
  dataset_id                 = var.dataset_id
  location                   = var.location
  description                = "Bias Monitor reporting warehouse"
  labels                     = var.labels
  delete_contents_on_destroy = false
}

resource "google_bigquery_table" "bias_metric_records" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.warehouse.dataset_id
  table_id            = "bias_metric_records"
  description         = "Council judge records (BiasMetricRecord 1.1.0), one per reviewer x model x session"
  deletion_protection = var.deletion_protection
  clustering          = ["tenant_id", "session_id"]
  labels              = var.labels

  time_partitioning {
    type  = "DAY"
    field = "timestamp"
  }

  schema = jsonencode([
    { name = "schema_version", type = "STRING", mode = "REQUIRED" },
    { name = "record_id", type = "STRING", mode = "REQUIRED" },
    { name = "tenant_id", type = "STRING", mode = "REQUIRED" },
    { name = "session_id", type = "STRING", mode = "REQUIRED" },
    { name = "timestamp", type = "TIMESTAMP", mode = "REQUIRED" },
    { name = "consent_level", type = "INT64", mode = "REQUIRED" },
    { name = "query_metadata", type = "JSON", mode = "NULLABLE" },
    { name = "reviewer_id", type = "STRING", mode = "REQUIRED" },
    { name = "model_id", type = "STRING", mode = "REQUIRED" },
    { name = "position", type = "INT64", mode = "NULLABLE" },
    { name = "response_length_chars", type = "INT64", mode = "REQUIRED" },
    { name = "response_length_words", type = "INT64", mode = "REQUIRED" },
    { name = "score_value", type = "FLOAT64", mode = "REQUIRED" },
    { name = "score_scale", type = "JSON", mode = "NULLABLE" },
    { name = "score_normalized", type = "FLOAT64", mode = "REQUIRED" },
    { name = "council_config_version", type = "STRING", mode = "REQUIRED" },
    { name = "query_hash", type = "STRING", mode = "NULLABLE" },
  ])
}

resource "google_bigquery_table" "bias_reports" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.warehouse.dataset_id
  table_id            = "bias_reports"
  description         = "Pooled council bias reports (BiasReportJson), one row per generated report"
  deletion_protection = var.deletion_protection
  clustering          = ["tenant_id"]
  labels              = var.labels

  time_partitioning {
    type  = "DAY"
    field = "generated_at"
  }

  schema = jsonencode([
    { name = "report_id", type = "STRING", mode = "REQUIRED" },
    { name = "tenant_id", type = "STRING", mode = "NULLABLE" },
    { name = "generated_at", type = "TIMESTAMP", mode = "REQUIRED" },
    { name = "window_start", type = "TIMESTAMP", mode = "NULLABLE" },
    { name = "window_end", type = "TIMESTAMP", mode = "NULLABLE" },
    { name = "sessions", type = "INT64", mode = "NULLABLE" },
    { name = "report", type = "JSON", mode = "REQUIRED" },
  ])
}

resource "google_bigquery_table" "audit_daily_rollups" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.warehouse.dataset_id
  table_id            = "audit_daily_rollups"
  description         = "Retention roll-ups of purged audits: counts by tenant, day, model, bias type and review outcome (row_key is deterministic; writes MERGE on it)"
  deletion_protection = var.deletion_protection
  clustering          = ["tenant_id", "llm_model"]
  labels              = var.labels

  time_partitioning {
    type  = "DAY"
    field = "day"
  }

  schema = jsonencode([
    { name = "row_key", type = "STRING", mode = "REQUIRED" },
    { name = "tenant_id", type = "STRING", mode = "REQUIRED" },
    { name = "day", type = "DATE", mode = "REQUIRED" },
    { name = "llm_model", type = "STRING", mode = "REQUIRED" },
    { name = "bias_type", type = "STRING", mode = "REQUIRED", description = "A bias type, none, or * for the per-record total" },
    { name = "review_outcome", type = "STRING", mode = "REQUIRED" },
    { name = "record_count", type = "INT64", mode = "REQUIRED" },
    { name = "bias_detected_count", type = "INT64", mode = "REQUIRED" },
    { name = "analysis_failed_count", type = "INT64", mode = "REQUIRED" },
    { name = "anonymized_count", type = "INT64", mode = "REQUIRED" },
  ])
}

resource "google_bigquery_table" "audit_stream" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.warehouse.dataset_id
  table_id            = "audit_stream"
  description         = "Every bias.audit.stream event (FR-BIAS-4.4.5), written by a Pub/Sub BigQuery subscription"
  deletion_protection = var.deletion_protection
  clustering          = ["tenant_id"]
  labels              = var.labels

  time_partitioning {
    type  = "DAY"
    field = "timestamp"
  }

  schema = jsonencode([
    { name = "audit_id", type = "STRING", mode = "REQUIRED" },
    { name = "tenant_id", type = "STRING", mode = "REQUIRED" },
    { name = "bias_detected", type = "BOOL", mode = "REQUIRED" },
    { name = "bias_score", type = "JSON", mode = "NULLABLE" },
    { name = "bias_type", type = "STRING", mode = "REPEATED" },
    { name = "bias_confidence_score", type = "FLOAT64", mode = "NULLABLE" },
    { name = "timestamp", type = "TIMESTAMP", mode = "REQUIRED" },
    { name = "trace_id", type = "STRING", mode = "NULLABLE" },
  ])
}

# The Pub/Sub service agent writes the stream table.
resource "google_bigquery_table_iam_member" "stream_writer" {
  project    = var.project_id
  dataset_id = google_bigquery_dataset.warehouse.dataset_id
  table_id   = google_bigquery_table.audit_stream.table_id
  role       = "roles/bigquery.dataEditor"
  member     = local.pubsub_service_agent
}

resource "google_bigquery_dataset_iam_member" "stream_metadata" {
  project    = var.project_id
  dataset_id = google_bigquery_dataset.warehouse.dataset_id
  role       = "roles/bigquery.metadataViewer"
  member     = local.pubsub_service_agent
}

resource "google_pubsub_topic" "audit_stream_bigquery_dlq" {
  project = var.project_id
  name    = "${var.audit_stream_topic_name}-bigquery-dlq"
  labels  = merge(var.labels, { purpose = "dead-letter" })
}

resource "google_pubsub_topic_iam_member" "audit_stream_bigquery_dlq" {
  project = var.project_id
  topic   = google_pubsub_topic.audit_stream_bigquery_dlq.name
  role    = "roles/pubsub.publisher"
  member  = local.pubsub_service_agent
}

resource "google_pubsub_subscription" "audit_stream_bigquery" {
  project = var.project_id
  name    = "${var.audit_stream_topic_name}-bigquery"
  topic   = var.audit_stream_topic_id
  labels  = var.labels

  bigquery_config {
    table               = "${var.project_id}.${google_bigquery_dataset.warehouse.dataset_id}.${google_bigquery_table.audit_stream.table_id}"
    use_table_schema    = true
    drop_unknown_fields = true
    write_metadata      = false
  }

  dead_letter_policy {
    dead_letter_topic     = google_pubsub_topic.audit_stream_bigquery_dlq.id
    max_delivery_attempts = 5
  }

  retry_policy {
    minimum_backoff = "10s"
    maximum_backoff = "600s"
  }

  expiration_policy {
    ttl = ""
  }

  depends_on = [google_bigquery_table_iam_member.stream_writer, google_bigquery_dataset_iam_member.stream_metadata]
}

resource "google_pubsub_subscription_iam_member" "audit_stream_bigquery_dead_letter" {
  project      = var.project_id
  subscription = google_pubsub_subscription.audit_stream_bigquery.name
  role         = "roles/pubsub.subscriber"
  member       = local.pubsub_service_agent
}
