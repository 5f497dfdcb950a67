-- One database per service: no service can read another's tables.
CREATE DATABASE gateway;
CREATE DATABASE payments;
CREATE DATABASE chain_watcher;
CREATE DATABASE refunds;
CREATE DATABASE invoicing;
CREATE DATABASE notifier;
