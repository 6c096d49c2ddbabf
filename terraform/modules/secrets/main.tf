# Secret Manager secrets for the configuration fields that are secrets. Only the containers are created here:
# values are added out of band (docs/DEPLOY.md) and never appear in code, state or variables.

locals {
  # Configuration field (shared/config.ts) => secret id.
  secrets = {
    HMAC_SECRET       = "${var.name_prefix}hmac-secret"
    AUTH_HS256_SECRET = "${var.name_prefix}auth-hs256-secret"
  }
}

resource "google_secret_manager_secret" "secret" {
  for_each = local.secrets

  project   = var.project_id
  secret_id = each.value
  labels    = merge(var.labels, { config_field = lower(each.key) })

  replication {
    auto {}
  }
}
