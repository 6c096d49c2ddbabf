output "job_names" {
  description = "Cloud Scheduler job name by job."
  value       = { for k, j in google_cloud_scheduler_job.job : k => j.name }
}
