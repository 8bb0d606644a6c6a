const { Sequelize } = require('sequelize');

// ruleid: javascript.sequelize-default-logging
const db = new Sequelize(config.database, config.username, config.password, { host: config.host, dialect: 'postgres' });
// ok: javascript.sequelize-default-logging
const quiet = new Sequelize(config.database, config.username, config.password, { host: config.host, logging: false });
// ruleid: javascript.sequelize-default-logging
const memory = new Sequelize('sqlite::memory:', { dialect: 'sqlite' });
// ok: javascript.sequelize-default-logging
const fromEnv = new Sequelize(process.env.DATABASE_URL, options);
// ok: javascript.sequelize-default-logging
const spread = new Sequelize({ ...databaseConfig, ...commonOptions });
