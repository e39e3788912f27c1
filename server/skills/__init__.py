"""Built-in skills: FAQ lookup, catalog search, text classification, recommendations, leads,
forms, appointments, memory and the knowledge base, over data sets tenants upload.

The use cases (``service``) know nothing of HTTP; the built-in tool files in ``builtins/`` call
them through the call pipeline's host calls, so a skill runs through the same registry, gate,
breakers and call log as every other tool.
"""
