output "dataset_id" {
  description = "Warehouse dataset id."
  value       = google_bigquery_dataset.warehouse.dataset_id
}

output "tables" {
  description = "Table id by purpose."
  value = {
    bias_metric_records = google_bigquery_table.bias_metric_records.table_id
    bias_reports        = google_bigquery_table.bias_reports.table_id
    audit_daily_rollups = google_bigquery_table.audit_daily_rollups.table_id
    audit_stream        = google_bigquery_table.audit_stream.table_id
  }
}
