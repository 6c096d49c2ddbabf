variable "project_id" {
  description = "Google Cloud project to deploy into."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a valid Google Cloud project id."
  }
}


variable "database_id" {
  description = "Firestore database id; the code uses (default)."
  type        = string
  default     = "(default)"

  validation {
    condition     = var.database_id == "(default)" || can(regex("^[a-z][a-z0-9-]{3,62}$", var.database_id))
    error_message = "database_id must be (default) or 4-63 lowercase letters, digits and hyphens."
  }
}

variable "location_id" {
  description = "Firestore location, e.g. eur3 or europe-west1. Cannot change after creation."
  type        = string

  validation {
    condition     = can(regex("^(nam5|eur3|[a-z]+-[a-z]+[0-9]+)$", var.location_id))
    error_message = "location_id must be a multi-region (nam5, eur3) or a region such as europe-west1."
  }
}

variable "create_database" {
  description = "Create the database (false when the project already has one)."
  type        = bool
  default     = true
}

variable "point_in_time_recovery" {
  description = "Enable 7-day point-in-time recovery."
  type        = bool
  default     = false
}

variable "deletion_protection" {
  description = "Protect the database against deletion."
  type        = bool
  default     = true
}

variable "indexes" {
  description = "Composite indexes by stable name (topology module output)."
  type = map(object({
    collection  = string
    query_scope = string
    fields = list(object({
      field_path   = string
      order        = optional(string)
      array_config = optional(string)
    }))
  }))

  validation {
    condition     = alltrue([for i in var.indexes : contains(["COLLECTION", "COLLECTION_GROUP"], i.query_scope) && length(i.fields) >= 2])
    error_message = "Each index needs query_scope COLLECTION or COLLECTION_GROUP and at least two fields."
  }
}

variable "ttl_fields" {
  description = "TTL policies by collection--field (topology module output)."
  type = map(object({
    collection = string
    field      = string
  }))

  validation {
    condition     = alltrue([for t in var.ttl_fields : length(t.collection) > 0 && length(t.field) > 0])
    error_message = "Each TTL policy needs a collection and a field."
  }
}
