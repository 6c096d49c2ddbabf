# Development environment: names prefixed dev-, DEBUG logs, paused schedules, scale to zero, no deletion
# protection. The system itself is modules/bias_monitor; only what makes this environment dev is here.
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

  environment_name       = "dev"
  name_prefix            = "dev-"
  log_level              = "DEBUG"
  max_instances          = 5
  min_http_instances     = 0
  schedules_paused       = true
  deletion_protection    = false
  point_in_time_recovery = false
  force_destroy_sources  = true
}

output "bias_monitor" {
  description = "function_urls, scheduler_jobs, secret_ids and bigquery_tables (terraform output -json bias_monitor)."
  value       = module.bias_monitor
}
