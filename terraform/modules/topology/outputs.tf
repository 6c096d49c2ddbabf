# The system's wiring, generated from the code (see generated.tf.json and scripts/terraform-topology.ts).

output "functions" {
  description = "Cloud Functions by name: source folder, entry point, signature, trigger topic and dead-letter topic."
  value       = local.functions
}

output "topics" {
  description = "Every Pub/Sub topic the code publishes to or consumes."
  value       = local.topics
}

output "dead_letter_topics" {
  description = "Dead-letter topics, one per consumed topic (<topic>-dlq)."
  value       = local.dead_letter_topics
}

output "outbound_topics" {
  description = "Topics consumed outside the functions (dashboards, the BigQuery sink, task tools)."
  value       = local.outbound_topics
}

output "schedules" {
  description = "Cloud Scheduler jobs by job name: cron, time zone, target topic and description."
  value       = local.schedules
}

output "firestore_indexes" {
  description = "Composite indexes the code's queries need, keyed by a stable name."
  value       = local.firestore_indexes
}

output "firestore_ttl_fields" {
  description = "Timestamp fields with a Firestore TTL policy, keyed by collection--field."
  value       = local.firestore_ttl_fields
}
