output "topic_ids" {
  description = "Topic id (projects/P/topics/T) by topic name, including dead-letter topics."
  value       = merge({ for k, t in google_pubsub_topic.topic : k => t.id }, { for k, t in google_pubsub_topic.dead_letter : k => t.id })
}

output "topic_names" {
  description = "Topic short name by topic name, including dead-letter topics."
  value       = merge({ for k, t in google_pubsub_topic.topic : k => t.name }, { for k, t in google_pubsub_topic.dead_letter : k => t.name })
}

output "pubsub_service_agent" {
  description = "IAM member of the project's Pub/Sub service agent."
  value       = local.pubsub_service_agent
}
