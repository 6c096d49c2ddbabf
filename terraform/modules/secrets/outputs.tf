output "secret_ids" {
  description = "Secret id by configuration field (HMAC_SECRET, AUTH_HS256_SECRET)."
  value       = { for field, s in google_secret_manager_secret.secret : field => s.secret_id }
}

output "secret_names" {
  description = "Full resource name (projects/P/secrets/S) by configuration field."
  value       = { for field, s in google_secret_manager_secret.secret : field => s.id }
}
