output "urls" {
  description = "HTTPS URL by function name."
  value       = { for name, f in google_cloudfunctions2_function.function : name => f.service_config[0].uri }
}

output "push_subscriptions" {
  description = "Push subscription name by consumer function."
  value       = { for name, s in google_pubsub_subscription.push : name => s.name }
}
