# One service account per function with the least privilege it needs: Firestore access, publishing to the
# specific topics it publishes to (including its own dead-letter topic for poison messages), reading the specific
# secrets it mounts, and BigQuery access on the dataset only when it uses the warehouse.

locals {
  # What each function's code does beyond Firestore. Keep in step with shared/app (which use cases publish where).
  # bigquery: "none", "reader" (queries reports) or "writer" (writes warehouse tables).
  access = {
    "audit-write-http"       = { publishes = ["bias-analysis-requests"], secrets = ["AUTH_HS256_SECRET"], bigquery = "none" }
    "audit-write-consumer"   = { publishes = ["bias-analysis-requests"], secrets = [], bigquery = "none" }
    "analyze-bias-http"      = { publishes = [], secrets = ["AUTH_HS256_SECRET"], bigquery = "none" }
    "analyze-bias-worker"    = { publishes = ["bias.audit.stream", "bias-task-suggestions"], secrets = [], bigquery = "none" }
    "analysis-sweeper"       = { publishes = ["bias-analysis-requests"], secrets = [], bigquery = "none" }
    "graphql"                = { publishes = ["bias.audit.stream", "bias-reviews", "bias-task-suggestions", "bias-analysis-requests"], secrets = ["AUTH_HS256_SECRET"], bigquery = "reader" }
    "council-audit-http"     = { publishes = ["council-sessions"], secrets = ["AUTH_HS256_SECRET", "HMAC_SECRET"], bigquery = "writer" }
    "council-audit-consumer" = { publishes = [], secrets = ["HMAC_SECRET"], bigquery = "writer" }
    "retention"              = { publishes = [], secrets = ["HMAC_SECRET"], bigquery = "writer" }
    "aggregate"              = { publishes = ["bias-alerts", "bias-task-suggestions"], secrets = [], bigquery = "writer" }
  }

  # Consumers publish poison messages to their own dead-letter topic (shared/transport/pubsub.ts).
  publishes = {
    for name, fn in var.functions : name => distinct(concat(lookup(local.access, name, { publishes = [] }).publishes, fn.dead_letter_topic == null ? [] : [fn.dead_letter_topic]))
  }

  publisher_bindings = merge([
    for name, topics in local.publishes : { for t in topics : "${name}/${t}" => { function = name, topic = t } }
  ]...)

  secret_bindings = merge([
    for name, fn in var.functions : { for s in lookup(local.access, name, { secrets = [] }).secrets : "${name}/${s}" => { function = name, field = s } }
  ]...)

  bigquery_bindings = {
    for name, fn in var.functions : name => lookup(local.access, name, { bigquery = "none" }).bigquery
    if lookup(local.access, name, { bigquery = "none" }).bigquery != "none"
  }

  project_roles = ["roles/datastore.user", "roles/logging.logWriter", "roles/cloudtrace.agent"]
  project_bindings = merge([
    for name, fn in var.functions : { for r in local.project_roles : "${name}/${r}" => { function = name, role = r } }
  ]...)
}

resource "google_service_account" "function" {
  for_each = var.functions

  project      = var.project_id
  account_id   = substr("fn-${each.key}", 0, 30)
  display_name = "Bias Monitor function ${each.key}"
  description  = "Runs the ${each.key} Cloud Function (entry point ${each.value.entry_point})."
}

# Pub/Sub push subscriptions authenticate to the consumer functions with OIDC tokens of this account.
resource "google_service_account" "pusher" {
  project      = var.project_id
  account_id   = "pubsub-pusher"
  display_name = "Bias Monitor Pub/Sub push"
  description  = "Identity of Pub/Sub push subscriptions invoking the consumer functions."
}

resource "google_service_account_iam_member" "pusher_token_creator" {
  service_account_id = google_service_account.pusher.name
  role               = "roles/iam.serviceAccountTokenCreator"
  member             = var.pubsub_service_agent
}

resource "google_project_iam_member" "function" {
  for_each = local.project_bindings

  project = var.project_id
  role    = each.value.role
  member  = "serviceAccount:${google_service_account.function[each.value.function].email}"
}

resource "google_pubsub_topic_iam_member" "publisher" {
  for_each = local.publisher_bindings

  project = var.project_id
  topic   = var.topic_names[each.value.topic]
  role    = "roles/pubsub.publisher"
  member  = "serviceAccount:${google_service_account.function[each.value.function].email}"
}

resource "google_secret_manager_secret_iam_member" "accessor" {
  for_each = local.secret_bindings

  project   = var.project_id
  secret_id = var.secret_ids[each.value.field]
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${google_service_account.function[each.value.function].email}"
}

resource "google_bigquery_dataset_iam_member" "dataset" {
  for_each = local.bigquery_bindings

  project    = var.project_id
  dataset_id = var.dataset_id
  role       = each.value == "writer" ? "roles/bigquery.dataEditor" : "roles/bigquery.dataViewer"
  member     = "serviceAccount:${google_service_account.function[each.key].email}"
}

# Running queries (MERGE, SELECT) needs job creation at project level; data access stays scoped to the dataset.
resource "google_project_iam_member" "bigquery_job_user" {
  for_each = local.bigquery_bindings

  project = var.project_id
  role    = "roles/bigquery.jobUser"
  member  = "serviceAccount:${google_service_account.function[each.key].email}"
}
