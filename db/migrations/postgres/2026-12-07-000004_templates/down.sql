DROP INDEX templates_by_name;
DROP TABLE templates;
