output "function_urls" {
  description = "HTTPS URL by function name."
  value       = module.functions.urls
}

output "scheduler_jobs" {
  description = "Cloud Scheduler job name by job (bias-monitor jobs list --project P --location L)."
  value       = module.scheduler.job_names
}

output "secret_ids" {
  description = "Secrets to fill with gcloud secrets versions add (docs/DEPLOY.md)."
  value       = module.secrets.secret_ids
}

output "bigquery_tables" {
  description = "Warehouse tables."
  value       = module.bigquery.tables
}
