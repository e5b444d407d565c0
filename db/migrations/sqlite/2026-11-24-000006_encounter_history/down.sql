DROP TABLE encounter_history;
