# Production environment: one warm instance per HTTP function, Firestore point-in-time recovery, deletion
# protection. The system itself is modules/bias_monitor; only what makes this environment prod is here.
# See docs/DEPLOY.md.

provider "google" {
  project = var.project_id
  region  = var.region
}

module "bias_monitor" {
  source = "../../modules/bias_monitor"

  project_id    = var.project_id
  region        = var.region
  auth_jwks_url = var.auth_jwks_url
  auth_issuer   = var.auth_issuer

  environment_name       = "prod"
  name_prefix            = ""
  log_level              = "INFO"
  max_instances          = 50
  min_http_instances     = 1
  schedules_paused       = false
  deletion_protection    = true
  point_in_time_recovery = true
  force_destroy_sources  = false
}

output "bias_monitor" {
  description = "function_urls, scheduler_jobs, secret_ids and bigquery_tables (terraform output -json bias_monitor)."
  value       = module.bias_monitor
}
