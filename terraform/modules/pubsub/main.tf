# Topics, one dead-letter topic per consumed topic, and a pull subscription on each dead-letter topic that keeps
# poison messages for inspection and replay. Push subscriptions to the functions live in the functions module.

data "google_project" "this" {
  project_id = var.project_id
}

locals {
  pubsub_service_agent = "serviceAccount:service-${data.google_project.this.number}@gcp-sa-pubsub.iam.gserviceaccount.com"
}

resource "google_pubsub_topic" "topic" {
  for_each = toset(var.topics)

  project                    = var.project_id
  name                       = each.value
  labels                     = var.labels
  message_retention_duration = var.message_retention_duration
}

resource "google_pubsub_topic" "dead_letter" {
  for_each = toset(var.dead_letter_topics)

  project                    = var.project_id
  name                       = each.value
  labels                     = merge(var.labels, { purpose = "dead-letter" })
  message_retention_duration = var.message_retention_duration
}

resource "google_pubsub_subscription" "dead_letter_hold" {
  for_each = google_pubsub_topic.dead_letter

  project                    = var.project_id
  name                       = "${each.key}-hold"
  topic                      = each.value.id
  labels                     = var.labels
  ack_deadline_seconds       = 60
  message_retention_duration = var.dead_letter_retention_duration
  retain_acked_messages      = false

  expiration_policy {
    ttl = ""
  }
}

# Pub/Sub forwards undeliverable messages itself: its service agent must be able to publish to the dead-letter topics.
resource "google_pubsub_topic_iam_member" "dead_letter_publisher" {
  for_each = google_pubsub_topic.dead_letter

  project = var.project_id
  topic   = each.value.name
  role    = "roles/pubsub.publisher"
  member  = local.pubsub_service_agent
}
