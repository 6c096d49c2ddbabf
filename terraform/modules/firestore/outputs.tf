output "index_ids" {
  description = "Index resource id by stable name."
  value       = { for k, i in google_firestore_index.index : k => i.id }
}
