# Cloud Scheduler jobs from shared/topology.ts SCHEDULES: each publishes a tick {"job": "<name>"} to its topic,
# which the job's function consumes. `bias-monitor jobs list|pause|resume` manages them after deployment.

resource "google_cloud_scheduler_job" "job" {
  for_each = var.schedules

  project     = var.project_id
  region      = var.region
  name        = "${var.name_prefix}${each.key}"
  description = each.value.description
  schedule    = each.value.cron
  time_zone   = each.value.time_zone
  paused      = var.paused

  retry_config {
    retry_count          = 3
    min_backoff_duration = "30s"
    max_backoff_duration = "600s"
  }

  pubsub_target {
    topic_name = var.topic_ids[each.value.topic]
    data       = base64encode(jsonencode({ job = each.key }))
    attributes = { job = each.key }
  }
}
