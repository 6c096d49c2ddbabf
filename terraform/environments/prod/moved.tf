# State addresses from before the environments called modules/bias_monitor (when each environment instantiated
# every module itself). Terraform moves the existing objects on the next plan instead of destroying and
# recreating them. Keep these blocks until every state of this environment has been applied once with them.

moved {
  from = google_project_service.service
  to   = module.bias_monitor.google_project_service.service
}

moved {
  from = module.topology
  to   = module.bias_monitor.module.topology
}

moved {
  from = module.secrets
  to   = module.bias_monitor.module.secrets
}

moved {
  from = module.pubsub
  to   = module.bias_monitor.module.pubsub
}

moved {
  from = module.firestore
  to   = module.bias_monitor.module.firestore
}

moved {
  from = module.bigquery
  to   = module.bias_monitor.module.bigquery
}

moved {
  from = module.iam
  to   = module.bias_monitor.module.iam
}

moved {
  from = module.functions
  to   = module.bias_monitor.module.functions
}

moved {
  from = module.scheduler
  to   = module.bias_monitor.module.scheduler
}
