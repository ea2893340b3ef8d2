"""services/api/apidoc.py documents views through flask-smorest without its wrappers,
by the one attribute the library keeps its documentation in: if a release of
flask-smorest stops documenting that way, these fail (not the generated openapi.yaml,
silently missing the answers)."""

import marshmallow as ma
from flask import Flask, Response
from flask_smorest import Api, Blueprint

from services.api.apidoc import doc_only, errors, query_doc


class Query(ma.Schema):
    wait = ma.fields.Integer(metadata={"description": "seconds"})


class Answer(ma.Schema):
    ok = ma.fields.Boolean()


def test_the_documentation_only_decorators_document_and_keep_the_view():
    app = Flask("apidoc")
    app.config.update(API_TITLE="t", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    api = Api(app)
    blp = Blueprint("things", "things", url_prefix="/things")

    def thing():
        return Response(b'{"ok": true}', mimetype="application/json")

    view = errors(blp, 404, 409)(query_doc(blp, Query)(doc_only(blp.response(200, Answer))(thing)))
    assert view is thing  # no layer for a request to run through
    blp.route("/one")(view)
    api.register_blueprint(blp)
    operation = api.spec.to_dict()["paths"]["/things/one"]["get"]
    assert {"200", "400", "404", "409"} <= set(operation["responses"])  # 400: the query
    assert [p["name"] for p in operation["parameters"]] == ["wait"]
    assert app.view_functions["things.thing"] is thing
    assert app.test_client().get("/things/one").json == {"ok": True}
