const { ApolloServer } = require('apollo-server-express');

// ruleid: javascript.graphql-introspection-enabled
const server = new ApolloServer({ introspection: true, playground: true, schema });
// ok: javascript.graphql-introspection-enabled
const prod = new ApolloServer({ introspection: process.env.NODE_ENV !== 'production', schema });
// ruleid: javascript.graphql-introspection-enabled
app.use('/graphql', graphqlHTTP({ schema, rootValue: root, graphiql: true }));
// ok: javascript.graphql-introspection-enabled
app.use('/graphql', graphqlHTTP({ schema, rootValue: root }));
