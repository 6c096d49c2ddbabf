# Cloud Functions (2nd gen, Node 22), one per entry of shared/topology.ts FUNCTIONS. Sources are the esbuild
# bundles of `npm run build` (dist/<source>/), zipped here. Consumers get a push subscription with a retry policy
# and a dead-letter topic; the push path /projects/<p>/topics/<t> lets functions-framework decode the raw push
# into a CloudEvent exactly as under the local stack.

locals {
  sources   = toset([for f in var.functions : f.source])
  consumers = { for name, f in var.functions : name => f if f.trigger != null }
  http      = { for name, f in var.functions : name => f if f.trigger == null }
}

resource "google_storage_bucket" "source" {
  project                     = var.project_id
  name                        = "${var.project_id}-${var.name_prefix}function-sources"
  location                    = var.region
  uniform_bucket_level_access = true
  public_access_prevention    = "enforced"
  force_destroy               = var.force_destroy_sources
  labels                      = var.labels

  lifecycle_rule {
    condition {
      age = 30
    }
    action {
      type = "Delete"
    }
  }
}

data "archive_file" "source" {
  for_each = local.sources

  type        = "zip"
  source_dir  = "${var.build_dir}/${each.key}"
  output_path = "${path.root}/.terraform/build/${each.key}.zip"
}

resource "google_storage_bucket_object" "source" {
  for_each = local.sources

  name   = "${each.key}/${data.archive_file.source[each.key].output_md5}.zip"
  bucket = google_storage_bucket.source.name
  source = data.archive_file.source[each.key].output_path
}

resource "google_cloudfunctions2_function" "function" {
  for_each = var.functions

  project     = var.project_id
  name        = "${var.name_prefix}${each.key}"
  location    = var.region
  description = "Bias Monitor ${each.key} (${each.value.signature}${each.value.trigger == null ? "" : ", push from ${each.value.trigger}"})"
  labels      = var.labels

  build_config {
    runtime     = "nodejs22"
    entry_point = each.value.entry_point
    environment_variables = {
      GOOGLE_FUNCTION_SIGNATURE_TYPE = each.value.signature
    }
    source {
      storage_source {
        bucket = google_storage_bucket.source.name
        object = google_storage_bucket_object.source[each.value.source].name
      }
    }
  }

  service_config {
    service_account_email            = var.service_accounts[each.key]
    available_memory                 = var.memory
    timeout_seconds                  = each.value.trigger == null ? var.http_timeout_seconds : var.consumer_timeout_seconds
    max_instance_count               = var.max_instances
    min_instance_count               = each.value.trigger == null ? var.min_http_instances : 0
    max_instance_request_concurrency = 1
    ingress_settings                 = "ALLOW_ALL"
    all_traffic_on_latest_revision   = true
    environment_variables            = merge(var.environment, { GCLOUD_PROJECT = var.project_id, NODE_ENV = "production" })

    dynamic "secret_environment_variables" {
      for_each = toset(lookup(var.function_secrets, each.key, []))
      content {
        key        = secret_environment_variables.value
        project_id = var.project_id
        secret     = var.secret_ids[secret_environment_variables.value]
        version    = "latest"
      }
    }
  }
}

# HTTP functions verify bearer tokens themselves (shared/auth); who may reach them at all is var.http_invokers.
resource "google_cloud_run_service_iam_member" "http_invoker" {
  for_each = { for pair in setproduct(keys(local.http), var.http_invokers) : "${pair[0]}/${pair[1]}" => { function = pair[0], member = pair[1] } }

  project  = var.project_id
  location = var.region
  service  = google_cloudfunctions2_function.function[each.value.function].service_config[0].service
  role     = "roles/run.invoker"
  member   = each.value.member
}

resource "google_cloud_run_service_iam_member" "push_invoker" {
  for_each = local.consumers

  project  = var.project_id
  location = var.region
  service  = google_cloudfunctions2_function.function[each.key].service_config[0].service
  role     = "roles/run.invoker"
  member   = "serviceAccount:${var.pusher_service_account}"
}

resource "google_pubsub_subscription" "push" {
  for_each = local.consumers

  project                    = var.project_id
  name                       = "${var.name_prefix}${each.key}-push"
  topic                      = var.topic_ids[each.value.trigger]
  labels                     = var.labels
  ack_deadline_seconds       = min(600, var.consumer_timeout_seconds)
  message_retention_duration = "604800s"

  push_config {
    push_endpoint = "${google_cloudfunctions2_function.function[each.key].service_config[0].uri}/projects/${var.project_id}/topics/${each.value.trigger}"
    oidc_token {
      service_account_email = var.pusher_service_account
      audience              = google_cloudfunctions2_function.function[each.key].service_config[0].uri
    }
  }

  retry_policy {
    minimum_backoff = var.retry_minimum_backoff
    maximum_backoff = var.retry_maximum_backoff
  }

  dead_letter_policy {
    dead_letter_topic     = var.topic_ids[each.value.dead_letter_topic]
    max_delivery_attempts = var.max_delivery_attempts
  }

  expiration_policy {
    ttl = ""
  }

  depends_on = [google_cloud_run_service_iam_member.push_invoker]
}

# Dead-lettering needs the Pub/Sub service agent to acknowledge on the source subscription.
resource "google_pubsub_subscription_iam_member" "dead_letter_subscriber" {
  for_each = google_pubsub_subscription.push

  project      = var.project_id
  subscription = each.value.name
  role         = "roles/pubsub.subscriber"
  member       = var.pubsub_service_agent
}
