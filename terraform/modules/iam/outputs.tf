output "function_service_accounts" {
  description = "Service account email by function name."
  value       = { for name, sa in google_service_account.function : name => sa.email }
}

output "function_secrets" {
  description = "Configuration fields each function mounts from Secret Manager."
  value       = { for name, fn in var.functions : name => lookup(local.access, name, { secrets = [] }).secrets }
}

output "pusher_service_account" {
  description = "Email of the account Pub/Sub push subscriptions use to invoke consumer functions."
  value       = google_service_account.pusher.email
}
