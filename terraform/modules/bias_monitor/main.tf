# The whole system in one project: every concern module, wired together. Each environment root
# (environments/<name>) configures the provider and state, then calls this module once with its own values, so
# the wiring exists once and a fix reaches every environment. See docs/decisions/052-terraform-one-composition-module.md.

locals {
  labels = merge(var.labels, { app = "bias-monitor", environment = var.environment_name })
  services = [
    "artifactregistry.googleapis.com",
    "bigquery.googleapis.com",
    "cloudbuild.googleapis.com",
    "cloudfunctions.googleapis.com",
    "cloudscheduler.googleapis.com",
    "firestore.googleapis.com",
    "iam.googleapis.com",
    "logging.googleapis.com",
    "pubsub.googleapis.com",
    "run.googleapis.com",
    "secretmanager.googleapis.com",
  ]
}

resource "google_project_service" "service" {
  for_each = toset(local.services)

  project            = var.project_id
  service            = each.value
  disable_on_destroy = false
}

module "topology" {
  source = "../topology"
}

module "secrets" {
  source = "../secrets"

  project_id  = var.project_id
  name_prefix = var.name_prefix
  labels      = local.labels

  depends_on = [google_project_service.service]
}

module "pubsub" {
  source = "../pubsub"

  project_id         = var.project_id
  topics             = module.topology.topics
  dead_letter_topics = module.topology.dead_letter_topics
  labels             = local.labels

  depends_on = [google_project_service.service]
}

module "firestore" {
  source = "../firestore"

  project_id             = var.project_id
  location_id            = var.firestore_location
  create_database        = var.create_firestore_database
  point_in_time_recovery = var.point_in_time_recovery
  deletion_protection    = var.deletion_protection
  indexes                = module.topology.firestore_indexes
  ttl_fields             = module.topology.firestore_ttl_fields

  depends_on = [google_project_service.service]
}

module "bigquery" {
  source = "../bigquery"

  project_id            = var.project_id
  dataset_id            = var.bigquery_dataset
  location              = var.bigquery_location
  deletion_protection   = var.deletion_protection
  audit_stream_topic_id = module.pubsub.topic_ids["bias.audit.stream"]
  labels                = local.labels

  depends_on = [google_project_service.service]
}

module "iam" {
  source = "../iam"

  project_id           = var.project_id
  functions            = module.topology.functions
  topic_names          = module.pubsub.topic_names
  secret_ids           = module.secrets.secret_ids
  dataset_id           = module.bigquery.dataset_id
  pubsub_service_agent = module.pubsub.pubsub_service_agent
}

module "functions" {
  source = "../functions"

  project_id             = var.project_id
  region                 = var.region
  name_prefix            = var.name_prefix
  functions              = module.topology.functions
  build_dir              = abspath("${path.root}/${var.build_dir}")
  service_accounts       = module.iam.function_service_accounts
  function_secrets       = module.iam.function_secrets
  secret_ids             = module.secrets.secret_ids
  topic_ids              = module.pubsub.topic_ids
  pusher_service_account = module.iam.pusher_service_account
  pubsub_service_agent   = module.pubsub.pubsub_service_agent
  http_invokers          = var.http_invokers
  max_instances          = var.max_instances
  min_http_instances     = var.min_http_instances
  max_delivery_attempts  = var.max_delivery_attempts
  force_destroy_sources  = var.force_destroy_sources
  labels                 = local.labels
  environment = {
    LOG_LEVEL         = var.log_level
    WAREHOUSE         = "bigquery"
    BIGQUERY_DATASET  = module.bigquery.dataset_id
    BIGQUERY_LOCATION = var.bigquery_location
    AUTH_JWKS_URL     = var.auth_jwks_url
    AUTH_ISSUER       = var.auth_issuer
    AUTH_AUDIENCE     = var.auth_audience
  }
}

module "scheduler" {
  source = "../scheduler"

  project_id  = var.project_id
  region      = var.region
  name_prefix = var.name_prefix
  schedules   = module.topology.schedules
  topic_ids   = module.pubsub.topic_ids
  paused      = var.schedules_paused

  depends_on = [module.functions]
}
