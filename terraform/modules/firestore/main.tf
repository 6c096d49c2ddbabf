# Firestore (native mode), the composite indexes the code's queries need and TTL policies. Indexes and TTL fields
# come from the topology module, generated from firestore.indexes.json and the retention job's declared needs.
# TTL removes bookkeeping documents (retention cursors, run reports). It does not anonymise or purge audits:
# anonymisation must append a hash-chain event and purging must roll up first (docs/decisions/050).

resource "google_firestore_database" "db" {
  count = var.create_database ? 1 : 0

  project                           = var.project_id
  name                              = var.database_id
  location_id                       = var.location_id
  type                              = "FIRESTORE_NATIVE"
  concurrency_mode                  = "OPTIMISTIC"
  point_in_time_recovery_enablement = var.point_in_time_recovery ? "POINT_IN_TIME_RECOVERY_ENABLED" : "POINT_IN_TIME_RECOVERY_DISABLED"
  delete_protection_state           = var.deletion_protection ? "DELETE_PROTECTION_ENABLED" : "DELETE_PROTECTION_DISABLED"
  deletion_policy                   = "ABANDON"
}

resource "google_firestore_index" "index" {
  for_each = var.indexes

  project     = var.project_id
  database    = var.database_id
  collection  = each.value.collection
  query_scope = each.value.query_scope

  dynamic "fields" {
    for_each = each.value.fields
    content {
      field_path   = fields.value.field_path
      order        = fields.value.order
      array_config = fields.value.array_config
    }
  }

  depends_on = [google_firestore_database.db]
}

resource "google_firestore_field" "ttl" {
  for_each = var.ttl_fields

  project    = var.project_id
  database   = var.database_id
  collection = each.value.collection
  field      = each.value.field

  ttl_config {}

  # TTL fields are never queried: skip their single-field indexes.
  index_config {}

  depends_on = [google_firestore_database.db]
}
